# Paper Fig. 4, P8: drop the failing grades first, then build the histogram (equivalent to P7).
program P8(R: Bag[(Int, Int)]) =
  let passing = filter(lambda (s) -> s[1] >= 60)(R)
  let deciles = map(lambda (s) -> (s[1] // 10, 1))(passing)
  foldByKey(0, lambda (a, b) -> a + b)(deciles)
