// Command winres writes the Windows resources of hermes.exe (its icon, its
// manifest and its version information) as a .syso object that go build
// links into a Windows build of the package in the same folder, and the
// same icon as an .ico file for the installer. scripts/release.sh runs it.
//
//	winres -png build/appicon.png -manifest build/windows/hermes.exe.manifest \
//	  -info build/windows/info.json -version 1.2.0 -arch amd64 \
//	  -syso hermes-res.syso -ico icon.ico
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	_ "image/png"
	"io"
	"os"
	"strings"

	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

// appIconID is the resource ID Wails loads the window's icon from.
const appIconID = 3

func main() {
	pngPath := flag.String("png", "", "the square PNG the icon is made from")
	manifestPath := flag.String("manifest", "", "the application manifest (XML)")
	infoPath := flag.String("info", "", "the version information (JSON, as winres reads it)")
	ver := flag.String("version", "", "the release's version, MAJOR.MINOR.PATCH")
	arch := flag.String("arch", "amd64", "the target architecture: amd64 or arm64")
	sysoPath := flag.String("syso", "", "the .syso file to write")
	icoPath := flag.String("ico", "", "the .ico file to write, for the installer (optional)")
	flag.Parse()
	if *pngPath == "" || *manifestPath == "" || *infoPath == "" || *ver == "" || *sysoPath == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*pngPath, *manifestPath, *infoPath, *ver, winres.Arch(*arch), *sysoPath, *icoPath); err != nil {
		fmt.Fprintln(os.Stderr, "winres:", err)
		os.Exit(1)
	}
}

func run(pngPath, manifestPath, infoPath, ver string, arch winres.Arch, sysoPath, icoPath string) error {
	data, err := os.ReadFile(pngPath)
	if err != nil {
		return err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("decode %s: %w", pngPath, err)
	}
	icon, err := winres.NewIconFromResizedImage(img, []int{256, 128, 64, 48, 32, 16})
	if err != nil {
		return err
	}
	var rs winres.ResourceSet
	if err := rs.SetIcon(winres.ID(appIconID), icon); err != nil {
		return err
	}

	manifest, err := os.ReadFile(manifestPath)
	if err != nil {
		return err
	}
	// The manifest's assembly version has four parts, like the file's.
	m, err := winres.AppManifestFromXML(bytes.ReplaceAll(manifest, []byte("{{VERSION}}"), []byte(fourParts(ver))))
	if err != nil {
		return fmt.Errorf("read %s: %w", manifestPath, err)
	}
	rs.SetManifest(m)

	info, err := os.ReadFile(infoPath)
	if err != nil {
		return err
	}
	var vi version.Info
	if err := vi.UnmarshalJSON(info); err != nil {
		return fmt.Errorf("read %s: %w", infoPath, err)
	}
	vi.SetFileVersion(ver)
	vi.SetProductVersion(ver)
	rs.SetVersionInfo(vi)

	if err := writeFile(sysoPath, func(w io.Writer) error { return rs.WriteObject(w, arch) }); err != nil {
		return err
	}
	if icoPath == "" {
		return nil
	}
	return writeFile(icoPath, icon.SaveICO)
}

// fourParts turns "1.2.3" or "1.2.3-beta.1" into "1.2.3.0".
func fourParts(ver string) string {
	core, _, _ := strings.Cut(ver, "-")
	parts := strings.Split(core, ".")
	for len(parts) < 4 {
		parts = append(parts, "0")
	}
	return strings.Join(parts[:4], ".")
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
