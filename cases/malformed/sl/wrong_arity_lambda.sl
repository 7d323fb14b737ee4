# expect: TypeCheckError 3:11 fold's operator takes 1 parameter but receives 2
program P(R: Bag[Int]) =
  fold(0, lambda (x) -> x + 1)(R)
