# Paper Fig. 2, P3: is the cheapest product at least 100? R holds (product id, price) pairs.
program P3(R: Bag[(Int, Int)]) =
  def price(p: (Int, Int)): Int = p[1]
  let m = min(map(price)(R))
  m >= 100
