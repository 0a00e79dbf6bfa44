package testing

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/harnlang/harn-check/runtime/harn"
)

// parse_junit_xml: the test cases of a JUnit XML report, leniently: each
// <testcase> becomes {name ("classname::name" when a class is given),
// status (passed, failed, errored, skipped), duration_ms, message (the
// failure or error message and its text), stdout, stderr}. Input that is
// not a report gives an empty list, never an error.

func install(lib *harn.Library) {
	lib.Builtin("parse_junit_xml", func(c *harn.Call, args []harn.Value) (harn.Value, error) {
		v := harn.Arg(args, 0)
		var data []byte
		switch v.Kind() {
		case harn.KindNil:
		case harn.KindString, harn.KindBytes:
			data = harn.BytesOf(v)
		default:
			return harn.Nil, harn.ThrowValue(harn.Str("parse_junit_xml: expected string or bytes, got " + v.TypeName()))
		}
		return harn.NewListValue(junitCases(data)), nil
	})
}

func junitCases(data []byte) []harn.Value {
	if !utf8.Valid(data) {
		return nil
	}
	text := string(data)
	var out []harn.Value
	for {
		i := strings.Index(text, "<testcase")
		if i < 0 {
			break
		}
		text = text[i:]
		end := strings.IndexByte(text, '>')
		if end < 0 {
			break
		}
		header := text[:end]
		name := xmlAttr(header, "name")
		if cls := xmlAttr(header, "classname"); cls != "" && name != "" {
			name = cls + "::" + name
		}
		secs, _ := strconv.ParseFloat(xmlAttr(header, "time"), 64)
		ms := int64(0)
		if !math.IsInf(secs, 0) && !math.IsNaN(secs) && secs >= 0 {
			ms = int64(secs * 1000)
		}
		d := harn.NewDict(6)
		d.Set("name", harn.Str(name))
		d.Set("status", harn.Str("passed"))
		d.Set("duration_ms", harn.Int(ms))
		d.Set("message", harn.Nil)
		d.Set("stdout", harn.Nil)
		d.Set("stderr", harn.Nil)
		if strings.HasSuffix(header, "/") {
			text = text[end+1:]
		} else {
			close := strings.Index(text[end:], "</testcase>")
			if close < 0 {
				break
			}
			body := text[end+1 : end+close]
			text = text[end+close+len("</testcase>"):]
			junitBody(d, body)
		}
		out = append(out, harn.DictValue(d))
	}
	return out
}

func junitBody(d *harn.Dict, body string) {
	if msg, ok := junitChild(body, "failure"); ok {
		d.Set("status", harn.Str("failed"))
		d.Set("message", harn.Str(msg))
	} else if msg, ok := junitChild(body, "error"); ok {
		d.Set("status", harn.Str("errored"))
		d.Set("message", harn.Str(msg))
	} else if strings.Contains(body, "<skipped") {
		d.Set("status", harn.Str("skipped"))
	}
	for _, s := range [][2]string{{"system-out", "stdout"}, {"system-err", "stderr"}} {
		if t, ok := junitText(body, s[0]); ok {
			d.Set(s[1], harn.Str(t))
		}
	}
}

// junitChild is the first <tag>'s message attribute and text joined by
// a newline (either alone when the other is missing).
func junitChild(body, tag string) (string, bool) {
	i := strings.Index(body, "<"+tag)
	if i < 0 {
		return "", false
	}
	end := strings.IndexByte(body[i:], '>')
	if end < 0 {
		return "", false
	}
	header := body[i : i+end]
	msg, hasMsg := xmlAttrOK(header, "message")
	text := ""
	if !strings.HasSuffix(header, "/") {
		close := strings.Index(body[i+end:], "</"+tag+">")
		if close < 0 {
			return "", false
		}
		text = xmlUnescape(strings.TrimSpace(body[i+end+1 : i+end+close]))
	}
	switch {
	case hasMsg && text == "":
		return msg, true
	case hasMsg:
		return msg + "\n" + text, true
	}
	return text, true
}

func junitText(body, tag string) (string, bool) {
	i := strings.Index(body, "<"+tag)
	if i < 0 {
		return "", false
	}
	end := strings.IndexByte(body[i:], '>')
	if end < 0 {
		return "", false
	}
	close := strings.Index(body[i+end:], "</"+tag+">")
	if close < 0 {
		return "", false
	}
	return xmlUnescape(strings.TrimSpace(body[i+end+1 : i+end+close])), true
}

// xmlAttrOK finds ` key="value"` in a tag header (the leading space keeps
// name from matching inside classname).
func xmlAttrOK(header, key string) (string, bool) {
	needle := " " + key + `="`
	i := strings.Index(header, needle)
	if i < 0 {
		return "", false
	}
	rest := header[i+len(needle):]
	j := strings.IndexByte(rest, '"')
	if j < 0 {
		return "", false
	}
	return xmlUnescape(rest[:j]), true
}

func xmlAttr(header, key string) string {
	v, _ := xmlAttrOK(header, key)
	return v
}

var xmlEntities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'")

func xmlUnescape(s string) string {
	return strings.ReplaceAll(xmlEntities.Replace(s), "&amp;", "&")
}
