# expect: SyntaxError_ 3:29 unexpected end of input
program P(R: Bag[Int]) =
  map(lambda (x) -> x + 1)(R
