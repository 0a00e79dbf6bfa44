package leia

func openDialects(in *Interp) {
}
