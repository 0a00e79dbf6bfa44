package cache

import (
	"net/url"
	"path/filepath"
	"strings"
)

// URIToPath returns the file system path of a file: URI, and "" for any
// other scheme (untitled buffers, for instance) or a malformed URI.
func URIToPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	p := u.Path
	// Windows drive letters arrive as /C:/dir.
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	return filepath.FromSlash(p)
}

// PathToURI returns the file: URI of an absolute path.
func PathToURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// uriExt returns the extension of the last path segment of uri.
func uriExt(uri string) string {
	if u, err := url.Parse(uri); err == nil {
		return filepath.Ext(u.Path)
	}
	return filepath.Ext(uri)
}
