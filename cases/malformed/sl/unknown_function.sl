# expect: NameResolutionError 3:7 unknown name 'triple'
program P(R: Bag[Int]) =
  map(triple)(R)
