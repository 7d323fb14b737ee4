# expect: SyntaxError_ 3:7 'count' is a reserved word
program P(R: Bag[Int]) =
  let count = 3
  R
