package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// A table is one table of benchstat's CSV output (-format csv): one unit,
// a row per value of -row, a column per value of -col.
type table struct {
	Unit string   // such as "sec/op", "B/s", "allocs/op" or a custom metric
	Cols []string // the column names, in order
	Rows []row    // in order, without the geomean row
}

// A row is one row of a table: a value, with its confidence interval, for
// each column that has one.
type row struct {
	Name  string
	Cells map[string]cell
}

// A cell is the median of one row and column, and benchstat's confidence
// interval around it as printed ("3%", "∞").
type cell struct {
	Value float64
	CI    string
}

// parseBenchstat reads the CSV that benchstat -format csv prints: a few
// "key: value" lines, then tables, each with two header records (column
// names, then units) whose first field is empty, and one record per row.
// A column's value is at its name's index and its confidence interval
// just after; the comparison fields that follow are ignored.
func parseBenchstat(r io.Reader) ([]table, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	var (
		tables []table
		cur    *table
		names  []string // the pending column-name record of a table
		starts []int    // the index of each column's value
	)
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return tables, nil
		}
		if err != nil {
			return nil, err
		}
		switch {
		case len(rec) < 2:
			// A configuration line such as "goos: linux".
		case rec[0] == "" && names == nil:
			names, cur = rec, nil
		case rec[0] == "":
			t, idx, err := newTable(names, rec)
			if err != nil {
				return nil, err
			}
			tables = append(tables, t)
			cur, starts, names = &tables[len(tables)-1], idx, nil
		case cur == nil:
			// Not inside a table: a configuration line with a comma.
		case rec[0] == "geomean":
		default:
			r, err := newRow(rec, cur.Cols, starts)
			if err != nil {
				return nil, err
			}
			cur.Rows = append(cur.Rows, r)
		}
	}
}

// newTable returns the empty table of a column-name record and a unit
// record, and the index of each column's value.
func newTable(names, units []string) (table, []int, error) {
	var t table
	var idx []int
	for i, n := range names {
		if n == "" {
			continue
		}
		if i >= len(units) || units[i] == "" {
			return table{}, nil, fmt.Errorf("benchstat csv: column %q has no unit", n)
		}
		if t.Unit == "" {
			t.Unit = units[i]
		}
		t.Cols = append(t.Cols, n)
		idx = append(idx, i)
	}
	if len(t.Cols) == 0 {
		return table{}, nil, errors.New("benchstat csv: a table without columns")
	}
	return t, idx, nil
}

// newRow reads one row record of a table of cols whose values are at
// starts. An empty value is a column the row does not have.
func newRow(rec, cols []string, starts []int) (row, error) {
	r := row{Name: rec[0], Cells: map[string]cell{}}
	for k, i := range starts {
		if i >= len(rec) || rec[i] == "" {
			continue
		}
		v, err := strconv.ParseFloat(rec[i], 64)
		if err != nil {
			return row{}, fmt.Errorf("benchstat csv: row %q, column %q: %v", rec[0], cols[k], err)
		}
		c := cell{Value: v}
		if i+1 < len(rec) {
			c.CI = rec[i+1]
		}
		r.Cells[cols[k]] = c
	}
	return r, nil
}

// unitTable returns the table of unit among tables.
func unitTable(tables []table, unit string) (table, bool) {
	for _, t := range tables {
		if t.Unit == unit {
			return t, true
		}
	}
	return table{}, false
}
