package harn

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/harnlang/harn-check/runtime/host"
)

// The outbound connectors against a fake provider: GitHub mints one app
// token for several calls and sends it as the installation; Slack sends
// the bot token and reports ok:false as an error; Linear returns the
// root field with the response's meta. Without --allow-net nothing is
// sent.
func TestConnectors(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		auth := r.Header.Get("Authorization")
		if strings.Count(auth, ".") == 2 {
			auth = "Bearer <jwt>"
		}
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" "+auth+" "+string(body))
		mu.Unlock()
		switch {
		case strings.HasSuffix(r.URL.Path, "/access_tokens"):
			fmt.Fprint(w, `{"token":"tok-1","expires_at":"2999-01-01T00:00:00Z"}`)
		case strings.HasPrefix(r.URL.Path, "/repos/"):
			fmt.Fprint(w, `{"id":7}`)
		case r.URL.Path == "/chat.postMessage":
			fmt.Fprint(w, `{"ok":true,"ts":"1.2"}`)
		case r.URL.Path == "/chat.update":
			fmt.Fprint(w, `{"ok":false,"error":"message_not_found"}`)
		case r.URL.Path == "/graphql":
			w.Header().Set("X-Complexity", "9")
			var req map[string]any
			json.Unmarshal(body, &req)
			fmt.Fprint(w, `{"data":{"commentCreate":{"success":true,"comment":{"id":"C-1"}}}}`)
		default:
			w.WriteHeader(404)
		}
	}))
	defer srv.Close()
	src := `import { comment, configure, merge_pr } from "std/connectors/github"
configure({app_id: 1, installation_id: 2, api_base_url: "` + srv.URL + `", private_key_pem: ` + jsonText(Str(pemKey)) + `})
println(comment("https://github.com/o/r/issues/5", "hi").id)
println(merge_pr("https://github.com/o/r/pull/6", {merge_method: "squash", admin_override: true}).admin_override_requested)
println(try { comment("not a url", "x") } catch (e) { e })
let slack = {api_base_url: "` + srv.URL + `", bot_token: "xoxb-1"}
println(connector_call("slack", "post_message", slack + {channel: "C1", text: "hello"}).ts)
println(try { connector_call("slack", "update_message", slack + {channel: "C1", ts: "1.2", text: "again"}) } catch (e) { e })
let made = connector_call("linear", "create_comment", {api_base_url: "` + srv.URL + `/graphql", access_token: "lin-1", issue_id: "ISS-1", body: "ok"})
println(made.comment.id + " " + to_string(made.meta.observed_complexity))
`
	out, err := runSource(t, src, runOpts{grants: host.Grants{Net: true}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "7\ntrue\ngithub connector: `not a url` is not a repository reference (owner/repo or a github.com URL)\n1.2\nmessage_not_found\nC-1 9\n"
	if out != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
	wantReqs := []string{
		"POST /app/installations/2/access_tokens Bearer <jwt> ",
		`POST /repos/o/r/issues/5/comments Bearer tok-1 {"body":"hi"}`,
		`PUT /repos/o/r/pulls/6/merge Bearer tok-1 {"merge_method":"squash"}`,
		`POST /chat.postMessage Bearer xoxb-1 {"channel":"C1","text":"hello"}`,
		`POST /chat.update Bearer xoxb-1 {"channel":"C1","text":"again","ts":"1.2"}`,
	}
	if len(seen) != 6 || strings.Join(seen[:5], "\n") != strings.Join(wantReqs, "\n") || !strings.HasPrefix(seen[5], "POST /graphql Bearer lin-1 ") {
		t.Fatalf("requests:\n%s", strings.Join(seen, "\n"))
	}
	seen = nil
	out, err = runSource(t, `import { post_message, configure } from "std/connectors/slack"
configure({api_base_url: "`+srv.URL+`", bot_token: "xoxb-1"})
println(try { post_message("C1", "x") } catch (e) { e })
`, runOpts{})
	if err != nil || !strings.Contains(out, "permission denied: connect") || !strings.Contains(out, "--allow-net") || len(seen) != 0 {
		t.Fatalf("without --allow-net: %q %v, %d requests", out, err, len(seen))
	}
}
