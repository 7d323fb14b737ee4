# expect: NameResolutionError 3:53 no recursion
program P(R: Bag[Int]) =
  def fact(n: Int): Int = if n <= 1 then 1 else n * fact(n - 1)
  map(fact)(R)
