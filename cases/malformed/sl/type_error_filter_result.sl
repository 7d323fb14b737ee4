# expect: TypeCheckError 3:24 filter's predicate must return Bool
program P(R: Bag[Int]) =
  filter(lambda (x) -> x % 2)(R)
