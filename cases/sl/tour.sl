# A tour of the whole language: every operator, every kind of function argument, and a result
# that mixes bags and basic values. It type-checks; it computes nothing in particular.
program Tour(R: Bag[Int], S: Bag[(Int, Int)], T: Bag[(Int, Bool)], t: Int, flag: Bool) =
  def inc(x: Int): Int = x + 1
  def clamp(x, lo: Int) = max(lo, min(x, 100))              # x's type comes from its first use
  def above(y: Int) = lambda (x: Int) -> x > y and not (x == -1)
  def shift(d) = lambda (p) -> (p[0], p[1] + d)             # d and p get their types at the first use
  let evens = filter(lambda (x) -> x % 2 == 0 or flag)(R)
  let pairs = flatMap(lambda (x) -> (x, -x, inc(x)))(evens)
  let total = fold(0, lambda (a, x) -> a + x)(pairs)
  let stats = aggregate((0, 0), lambda (acc, x) -> (acc[0] + x, acc[1] + 1),
                        lambda (a, b) -> (a[0] + b[0], a[1] + b[1]))(R)
  let biggest = reduce(lambda (a, b) -> if a >= b then a else b)(R)
  let n = count(R) + sum(R) - min(R) * max(R) // 2
  let keyed = map(shift(t))(S)
  let joined = join(keyed, map(lambda (p) -> (p[0], p[1] == 0))(S))
  let grid = cartesian(R, distinct(union(R, map(lambda (x) -> clamp(x, t))(R))))
  let byKey1 = foldByKey(0, lambda (a, b) -> a + b)(keyed)
  let byKey2 = aggregateByKey(0, lambda (a, v) -> a + abs(v), lambda (a, b) -> a + b)(S)
  let byKey3 = reduceByKey(lambda (a, b) -> max(a, b))(S)
  let byKey4 = combineByKey(lambda (v) -> (v, 1), lambda (c, v) -> (c[0] + v, c[1] + 1),
                            lambda (c, d) -> (c[0] + d[0], c[1] + d[1]))(S)
  let groups = groupByKey(sum, len, min, max)(S)
  let sums = groupByKey(sum)(S)
  let picked = filter(above(total // (stats[1] + 1)))(R)
  let flags = map(lambda (p) -> (if p[1] then apply(lambda (z) -> z * 2)(p[0]) > 0 else above(t)(p[0])) == flag)(T)
  (picked, joined, grid, byKey1, byKey2, byKey3, byKey4, groups, sums, flags, (total, biggest, n, stats[0]))
