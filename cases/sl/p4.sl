# Paper Fig. 2, P4: discount every price by 20, then compare the cheapest to 80 (equivalent to P3).
program P4(R: Bag[(Int, Int)]) =
  def discount(p: (Int, Int)): (Int, Int) = (p[0], p[1] - 20)
  let R1 = map(discount)(R)
  let m = reduce(lambda (a, b) -> min(a, b))(map(lambda (p) -> p[1])(R1))
  m >= 80
