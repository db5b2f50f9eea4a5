// Package sfv parses the Dictionary of RFC 9651 (Structured Field Values
// for HTTP, section 4.2.2) as far as an AI usage preference needs it
// (draft-ietf-aipref-vocab, "Processing Algorithm"), for the robots.txt
// Content-Usage rule and the Content-Usage header: members with bare items
// and parameters. A dictionary with an inner list, a date or a display
// string does not parse (its preferences are unknown).
package sfv

import (
	"errors"
	"strings"
)

// A Member is one member of a dictionary.
type Member struct {
	Key   string
	Kind  byte   // 't' token, 's' string, 'n' number, 'b' boolean, ':' byte sequence
	Value string // the token, the unescaped string, or the text of the others
	Raw   string // the value and parameters as written ("" for a bare key)
}

// YesNo returns 'y' or 'n' for the tokens y and n, else 0 (unknown).
func (m Member) YesNo() byte {
	if m.Kind == 't' && (m.Value == "y" || m.Value == "n") {
		return m.Value[0]
	}
	return 0
}

var (
	errSFKey      = errors.New("a key must start with a lower-case letter or \"*\"")
	errSFItem     = errors.New("a value must be a token, a string, a number, a boolean or a byte sequence")
	errSFString   = errors.New("a string is not closed or holds a bad escape")
	errSFSep      = errors.New("members must be separated by \",\"")
	errSFTrailing = errors.New("a \",\" ends the dictionary")
	errSFEmpty    = errors.New("the dictionary is empty")
)

// ParseDictionary returns the members of the dictionary s as written, a
// key given twice included (see LastValues), or an error.
func ParseDictionary(s string) ([]Member, error) {
	var out []Member
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return nil, errSFEmpty
	}
	for {
		var m Member
		var err error
		if m.Key, s, err = consumeSFKey(s); err != nil {
			return nil, err
		}
		start := strings.TrimPrefix(s, "=")
		m.Kind, m.Value = 'b', "?1" // a bare key is true
		if start != s {
			if m.Kind, m.Value, s, err = consumeSFItem(start); err != nil {
				return nil, err
			}
		}
		// parameters = *( ";" *SP key [ "=" bare-item ] ), skipped
		for strings.HasPrefix(s, ";") {
			if _, s, err = consumeSFKey(strings.TrimLeft(s[1:], " ")); err != nil {
				return nil, err
			}
			if strings.HasPrefix(s, "=") {
				if _, _, s, err = consumeSFItem(s[1:]); err != nil {
					return nil, err
				}
			}
		}
		m.Raw = start[:len(start)-len(s)]
		out = append(out, m)
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return out, nil
		}
		if s[0] != ',' {
			return nil, errSFSep
		}
		if s = strings.TrimLeft(s[1:], " \t"); s == "" {
			return nil, errSFTrailing
		}
	}
}

// LastValues returns the dictionary members make: a key given twice keeps
// its last value, in the place of its first.
func LastValues(members []Member) []Member {
	var out []Member
	at := make(map[string]int, len(members)) // a key's index in out
	for _, m := range members {
		if i, ok := at[m.Key]; ok {
			out[i] = m
			continue
		}
		at[m.Key] = len(out)
		out = append(out, m)
	}
	return out
}

// consumeSFKey returns the key s starts with and the rest of s:
//
//	key = ( lcalpha / "*" ) *( lcalpha / DIGIT / "_" / "-" / "." / "*" )
func consumeSFKey(s string) (key, rest string, err error) {
	if s == "" || strings.IndexByte(lcAlpha+"*", s[0]) < 0 {
		return "", s, errSFKey
	}
	rest = strings.TrimLeft(s[1:], lcAlpha+digit+"_-.*")
	return s[:len(s)-len(rest)], rest, nil
}

// consumeSFItem returns the bare item s starts with, its kind and value,
// and the rest of s:
//
//	bare-item = sf-integer / sf-decimal / sf-string / sf-token / sf-binary / sf-boolean
func consumeSFItem(s string) (kind byte, value, rest string, err error) {
	switch {
	case s == "":
		return 0, "", s, errSFItem
	case strings.IndexByte("-"+digit, s[0]) >= 0:
		rest = strings.TrimLeft(s[1:], digit+".")
		if num := s[:len(s)-len(rest)]; num != "-" {
			return 'n', num, rest, nil
		}
	case s[0] == '"':
		return consumeSFString(s)
	case strings.IndexByte(alpha+"*", s[0]) >= 0:
		rest = strings.TrimLeft(s[1:], tchar+":/")
		return 't', s[:len(s)-len(rest)], rest, nil
	case s[0] == ':':
		if v, rest, ok := strings.Cut(s[1:], ":"); ok {
			return ':', v, rest, nil
		}
	case strings.HasPrefix(s, "?0") || strings.HasPrefix(s, "?1"):
		return 'b', s[:2], s[2:], nil
	}
	return 0, "", s, errSFItem
}

// consumeSFString returns the string s starts with, unescaped:
//
//	sf-string = DQUOTE *( unescaped / "%" / bs-escaped ) DQUOTE
func consumeSFString(s string) (kind byte, value, rest string, err error) {
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
			i++
		case c == '"':
			return 's', unescapeSF.Replace(s[1:i]), s[i+1:], nil
		case c == '\\' || c < 0x20 || c > 0x7e:
			return 0, "", s, errSFString
		}
	}
	return 0, "", s, errSFString
}

var unescapeSF = strings.NewReplacer(`\"`, `"`, `\\`, `\`)

// The characters of RFC 9651 and of tchar (RFC 9110):
//
//	tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
//	        "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
const (
	lcAlpha = "abcdefghijklmnopqrstuvwxyz"
	alpha   = lcAlpha + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digit   = "0123456789"
	tchar   = alpha + digit + "!#$%&'*+-.^_`|~"
)
