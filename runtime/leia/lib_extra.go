package leia

// openExtra installs the smaller standard modules.
func openExtra(in *Interp) {
}
