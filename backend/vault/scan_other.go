//go:build !linux

package vault

// listDir lists the folders, notes and links named as notes in the folder
// at slash path dir (see listRootDir; Linux reads the folder itself).
func (v *Vault) listDir(dir string) ([]dirEntry, error) { return v.listRootDir(dir) }
