# expect: SyntaxError_ 3:25 unexpected character '$'
program P(R: Bag[Int]) =
  map(lambda (x) -> x + $1)(R)
