# expect: SyntaxError_ 2:12 unexpected ')'
program P(R) =
  R
