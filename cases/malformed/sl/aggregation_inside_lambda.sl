# expect: TypeCheckError 3:28 filter's predicate cannot contain count
program P(R: Bag[Int]) =
  filter(lambda (x) -> x > count(R))(R)
