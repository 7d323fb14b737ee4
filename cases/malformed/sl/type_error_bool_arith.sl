# expect: TypeCheckError 3:22 '+' needs Int operands but the left operand has type Bool
program P(R: Bag[Int]) =
  map(lambda (x) -> (x > 0) + 1)(R)
