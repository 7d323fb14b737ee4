# expect: TypeCheckError 3:15 a tuple can hold a bag (Bag[Int]) only in the program's result
program P(R: Bag[Int]) =
  let both = (R, count(R))
  both
