# expect: SyntaxError_ 3:36 unexpected '<'
program P(R: Bag[Int]) =
  filter(lambda (x: Int) -> 0 <= x < 10)(R)
