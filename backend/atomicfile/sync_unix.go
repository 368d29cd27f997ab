//go:build !windows

package atomicfile

// syncDir syncs directory name in d; a variable so that tests can see it
// called.
var syncDir = func(d dir, name string) error {
	f, err := d.Open(name)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
