# expect: TypeCheckError 3:15 map's function expects Int but the bag holds (Int, Int)
program P(R: Bag[(Int, Int)]) =
  map(lambda (x: Int) -> x + 1)(R)
