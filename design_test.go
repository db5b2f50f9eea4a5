package robots

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"
)

// designRefs finds the files DESIGN.md names, anywhere in its text
// ("parse.go", "fetch/cache.go"), each with the declaration it names after
// a colon, if any ("parse.go:Parse", "internal/lines/table.go:Writer.Add").
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
	decls := map[string]map[string]bool{} // by file
	files, names := 0, 0
	for _, m := range designRefs.FindAllStringSubmatch(doc, -1) {
		file, name := m[1], m[2]
		if decls[file] == nil {
			d, err := declaredIn(file)
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
