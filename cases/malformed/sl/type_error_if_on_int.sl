# expect: TypeCheckError 4:6 the condition of 'if' must be Bool but has type Int
program P(R: Bag[Int]) =
  let n = count(R)
  if n then 1 else 0
