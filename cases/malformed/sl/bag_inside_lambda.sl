# expect: TypeCheckError 4:46 map's function cannot use the bag 'S'
program P(R: Bag[Int], S: Bag[Int]) =
  # A lambda sees single elements and basic values only; a bag needs cartesian or join.
  map(lambda (x) -> if x > 0 then x else x + S)(R)
