package main

// value returns the cell of row and col in the table of unit.
func value(tables []table, unit, row, col string) (cell, bool) {
	t, ok := unitTable(tables, unit)
	if !ok {
		return cell{}, false
	}
	for _, r := range t.Rows {
		if r.Name == row {
			c, ok := r.Cells[col]
			return c, ok
		}
	}
	return cell{}, false
}

// rowNames returns the rows of the table of unit, in benchstat's order.
func rowNames(tables []table, unit string) []string {
	t, _ := unitTable(tables, unit)
	var names []string
	for _, r := range t.Rows {
		names = append(names, r.Name)
	}
	return names
}

// lookup formats the cell of row and col in the table of unit, or returns
// missing.
func lookup(tables []table, unit, row, col string, format func(cell) string) string {
	c, ok := value(tables, unit, row, col)
	return cellOr(c, ok, format)
}

// plain formats a count (B/op, allocs/op, bytes) without its interval.
func plain(tables []table, unit, row, col string) string {
	return lookup(tables, unit, row, col, func(c cell) string { return grouped(c.Value, 0) })
}

// cellOr formats c, or returns missing if !ok.
func cellOr(c cell, ok bool, format func(cell) string) string {
	if !ok {
		return missing
	}
	return format(c)
}

// ratio formats a ÷ b, or returns missing if either is missing.
func ratio(a cell, okA bool, b cell, okB bool) string {
	if !okA || !okB || b.Value == 0 {
		return missing
	}
	return times(a.Value / b.Value)
}
