# expect: NameResolutionError 4:15 'x' is already defined
program P(R: Bag[Int], x: Int) =
  # x is an input; a lambda parameter may not reuse the name.
  map(lambda (x) -> x + 1)(R)
