# Paper Fig. 4, P7: histogram of grades by decile, keeping the passing deciles (>= 6).
# R holds (student id, grade) pairs.
program P7(R: Bag[(Int, Int)]) =
  let deciles = map(lambda (s) -> (s[1] // 10, 1))(R)
  let hist = foldByKey(0, lambda (a, b) -> a + b)(deciles)
  filter(lambda (kv) -> kv[0] >= 6)(hist)
