# expect: NameResolutionError 4:29 unknown name 'threshold'
program P(R: Bag[Int]) =
  let doubled = map(lambda (x) -> 2 * x)(R)
  filter(lambda (x) -> x >= threshold)(doubled)
