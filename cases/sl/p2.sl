# Paper Fig. 1, P2: keep the elements that are at least 50, then double them (equivalent to P1).
program P2(R: Bag[Int]) =
  def double(x: Int): Int = 2 * x
  def geq(y: Int) = lambda (x: Int) -> x >= y
  let R1 = filter(geq(50))(R)
  map(double)(R1)
