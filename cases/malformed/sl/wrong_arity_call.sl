# expect: TypeCheckError 4:21 function add takes 2 parameters but receives 3
program P(R: Bag[Int]) =
  def add(x: Int, y: Int): Int = x + y
  map(lambda (x) -> add(x, 1, 2))(R)
