package vault

import "io/fs"

// listRootDir lists the folders, notes and links named as notes in the
// folder at slash path dir, leaving out what is never read, through
// os.Root, which lstats every entry of a folder it lists.
func (v *Vault) listRootDir(dir string) ([]dirEntry, error) {
	f, err := v.root.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	var out []dirEntry
	for _, e := range entries {
		name := e.Name()
		switch {
		case v.excluded(name):
		case e.IsDir():
			out = append(out, dirEntry{name: name, kind: entryDir})
		case !isNote(name):
		case e.Type()&fs.ModeSymlink != 0:
			out = append(out, dirEntry{name: name, kind: entryLink})
		case e.Type().IsRegular():
			if fi, err := e.Info(); err == nil {
				out = append(out, dirEntry{name, entryNote, stamp{fi.Size(), fi.ModTime().UnixNano()}})
			}
		}
	}
	return out, nil
}
