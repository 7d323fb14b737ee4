# Paper Fig. 1, P1: double every element, then keep those that are at least 100.
program P1(R: Bag[Int]) =
  def double(x: Int): Int = 2 * x
  def geq(y: Int) = lambda (x: Int) -> x >= y
  let R1 = map(double)(R)
  filter(geq(100))(R1)
