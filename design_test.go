package robots

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// designRefs finds the files DESIGN.md names, anywhere in its text
// ("parse.go", "fetch/cache.go"), each with the declaration it names after
// a colon, if any ("parse.go:Parse", "internal/lines/table.go:Writer.Add").
// A path is from the module's root; a bare name not at the root names the
// one file of that name in the module's packages ("api.go" in a list of
// internal/ruleset's files), and fails if several have it.
var designRefs = regexp.MustCompile(`\b([\w/.-]*\w\.go)\b(?::([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?))?`)

// designPaths finds the code spans of DESIGN.md that hold a path
// ("fetch/", "internal/sfv").
var designPaths = regexp.MustCompile("`([\\w.-]+(?:/[\\w.-]+)*/?)`")

// TestDesignNamesExist checks that every file DESIGN.md names exists, that
// every declaration it names with a file is declared in that file (a
// function, a method as Recv.Name, a type, a constant or a variable), and
// that every path in a code span exists: so that a rename or a move that
// the page does not follow fails here.
func TestDesignNamesExist(t *testing.T) {
	b, err := os.ReadFile("DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	byBase := goFilesByBase(t)
	decls := map[string]map[string]bool{} // by file
	files, names := 0, 0
	for _, m := range designRefs.FindAllStringSubmatch(doc, -1) {
		file, name := m[1], m[2]
		if decls[file] == nil {
			path := resolveDesignFile(file, byBase)
			if _, err := os.Stat(path); err != nil && len(byBase[file]) > 1 {
				paths := byBase[file]
				t.Errorf("DESIGN.md names %s, which the root does not have and %d packages do (%s): give its path",
					file, len(paths), strings.Join(paths, ", "))
				decls[file] = map[string]bool{}
				continue
			}
			d, err := declaredIn(path)
			if err != nil {
				t.Errorf("DESIGN.md names %s: %v", file, err)
				decls[file] = map[string]bool{}
				continue
			}
			decls[file] = d
			files++
		}
		if name == "" {
			continue
		}
		names++
		if !decls[file][name] {
			t.Errorf("DESIGN.md names %s:%s, which %s does not declare", file, name, file)
		}
	}
	for _, m := range designPaths.FindAllStringSubmatch(doc, -1) {
		if p := m[1]; strings.Contains(p, "/") {
			if _, err := os.Stat(p); err != nil {
				t.Errorf("DESIGN.md names %s: %v", p, err)
			}
		}
	}
	if files < 20 || names < 50 {
		t.Errorf("DESIGN.md names %d files and %d declarations: the pattern no longer finds them", files, names)
	}
}

// goFilesByBase returns the paths of the module's Go files that are not
// tests, by base name, from the module's root.
func goFilesByBase(t *testing.T) map[string][]string {
	t.Helper()
	byBase := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != "."):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go"):
			byBase[d.Name()] = append(byBase[d.Name()], filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return byBase
}

// resolveDesignFile returns the path of file, a path from the module's
// root or a bare name (see designRefs); a bare name that several packages
// have stays as it is, and so fails to open unless the root has it.
func resolveDesignFile(file string, byBase map[string][]string) string {
	if strings.Contains(file, "/") {
		return file
	}
	if _, err := os.Stat(file); err == nil {
		return file
	}
	if paths := byBase[file]; len(paths) == 1 {
		return paths[0]
	}
	return file
}

// declaredIn returns the names declared at the top level of the Go file
// path: functions, types, constants and variables by name, methods as
// Recv.Name.
func declaredIn(path string) (map[string]bool, error) {
	f, err := goparser.ParseFile(token.NewFileSet(), path, nil, goparser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				names[d.Name.Name] = true
				continue
			}
			recv := d.Recv.List[0].Type
			if s, ok := recv.(*ast.StarExpr); ok {
				recv = s.X
			}
			switch r := recv.(type) {
			case *ast.IndexExpr:
				recv = r.X
			case *ast.IndexListExpr:
				recv = r.X
			}
			if id, ok := recv.(*ast.Ident); ok {
				names[id.Name+"."+d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				}
			}
		}
	}
	return names, nil
}
