package harn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Outbound connectors: std/connectors/github, std/connectors/linear and
// std/connectors/slack call the providers' HTTP APIs with the credentials
// a program configured, through the host's client (behind --allow-net)
// and the egress policy; connector_call(provider, method, params) is the
// same call without the module. A module's configure(config) keeps the
// configuration for the run, reset() forgets it; each call merges the
// configuration under its own parameters. Credentials stay in the run's
// memory: nothing here writes them anywhere.

// connectorState is a run's connector configurations and GitHub
// installation tokens.
type connectorState struct {
	mu     sync.Mutex
	config map[string]map[string]any
	tokens map[string]githubToken
}

type githubToken struct {
	token   string
	refresh time.Time
}

func connectorsOf(c *Call) *connectorState {
	return c.th.in.State("connectors", func() any {
		return &connectorState{config: map[string]map[string]any{}, tokens: map[string]githubToken{}}
	}).(*connectorState)
}

// connectorError is a failed connector call, thrown as its message.
func connectorError(format string, a ...any) error {
	return throwValue(Str(fmt.Sprintf(format, a...)))
}

// plainMap converts a dict argument to Go data without nil entries; nil
// or anything else is an empty map.
func plainMap(v Value) map[string]any {
	out := map[string]any{}
	if v.k == KindDict {
		if m, ok := toGo(v).(map[string]any); ok {
			for k, x := range m {
				if x != nil {
					out[k] = x
				}
			}
		}
	}
	return out
}

// connectorParams merges a call's parameters over the configuration;
// nil parameters are left out.
func connectorParams(c *Call, provider string, params map[string]any) map[string]any {
	st := connectorsOf(c)
	st.mu.Lock()
	out := map[string]any{}
	for k, v := range st.config[provider] {
		out[k] = v
	}
	st.mu.Unlock()
	for k, v := range params {
		if v != nil {
			out[k] = v
		}
	}
	return out
}

// connectorRequest sends one request through the host's client after the
// egress policy allows it, and reads the whole answer (at most 64 MiB).
func connectorRequest(c *Call, provider, method, url string, headers map[string]string, body any) (int, http.Header, []byte, error) {
	if err := enforceEgress(c, "connector_call:"+provider, url); err != nil {
		return 0, nil, nil, err
	}
	var reader io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, nil, connectorError("%s connector: %v", provider, err)
		}
		reader = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(c.Context(), method, url, reader)
	if err != nil {
		return 0, nil, nil, connectorError("%s connector: %v", provider, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	var resp *http.Response
	var data []byte
	c.Block(func() {
		resp, err = c.th.in.host.HTTPClient(60 * time.Second).Do(req)
		if err == nil {
			data, err = io.ReadAll(io.LimitReader(resp.Body, 64<<20))
			resp.Body.Close()
		}
	})
	if err != nil {
		return 0, nil, nil, ioError("connector_call "+provider, err)
	}
	return resp.StatusCode, resp.Header, data, nil
}

// decodeJSON reads a response body into Go data, numbers kept exact.
func decodeJSON(provider string, data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, connectorError("%s connector: response is not JSON: %v", provider, err)
	}
	return x, nil
}

func strParam(p map[string]any, k string) string {
	s, _ := p[k].(string)
	return s
}

func joinURL(base, path string) string {
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return path
	}
	return strings.TrimRight(base, "/") + "/" + strings.TrimLeft(path, "/")
}

// connectorCall dispatches provider.method.
func connectorCall(c *Call, provider, method string, params map[string]any) (Value, error) {
	var x any
	var err error
	switch provider {
	case "github":
		x, err = githubCall(c, method, params)
	case "slack":
		x, err = slackCall(c, method, params)
	case "linear":
		x, err = linearCall(c, method, params)
	default:
		return Nil, connectorError("connector_call: unknown provider `%s` (this runtime has github, linear and slack)", provider)
	}
	if err != nil {
		return Nil, err
	}
	return fromGo(x), nil
}

// --- GitHub ---

const githubAPIVersion = "2022-11-28"

// githubRef is owner/repo and, for issue and pull URLs, the number.
type githubRef struct {
	owner, repo string
	number      string
}

// parseGitHubRef reads "owner/repo", "owner/repo#N" or a github.com URL
// of a repository, issue or pull request.
func parseGitHubRef(s string, needNumber bool) (githubRef, error) {
	var r githubRef
	rest := s
	if u, err := neturl.Parse(s); err == nil && u.Host != "" {
		rest = strings.Trim(u.Path, "/")
	}
	if base, num, ok := strings.Cut(rest, "#"); ok {
		rest, r.number = base, num
	}
	parts := strings.Split(strings.Trim(rest, "/"), "/")
	if len(parts) >= 2 {
		r.owner, r.repo = parts[0], parts[1]
	}
	if len(parts) >= 4 && (parts[2] == "issues" || parts[2] == "pull" || parts[2] == "pulls") {
		r.number = parts[3]
	}
	if r.owner == "" || r.repo == "" {
		return r, connectorError("github connector: `%s` is not a repository reference (owner/repo or a github.com URL)", s)
	}
	if _, err := strconv.ParseUint(r.number, 10, 64); needNumber && err != nil {
		return r, connectorError("github connector: `%s` is not an issue or pull request URL", s)
	}
	return r, nil
}

// githubInstallationToken returns the installation's token, minted with
// an app JWT the first time and kept until shortly before it expires.
func githubInstallationToken(c *Call, p map[string]any, base string, fresh bool) (string, error) {
	appID, instID := p["app_id"], p["installation_id"]
	if appID == nil {
		return "", connectorError("github connector requires app_id")
	}
	if instID == nil {
		return "", connectorError("github connector requires installation_id")
	}
	pem := strParam(p, "private_key_pem")
	if pem == "" {
		return "", connectorError("github connector requires private_key_pem")
	}
	key := base + "#" + fmt.Sprint(instID)
	st := connectorsOf(c)
	st.mu.Lock()
	tok, ok := st.tokens[key]
	st.mu.Unlock()
	now := c.th.in.host.Now()
	if ok && !fresh && now.Before(tok.refresh) {
		return tok.token, nil
	}
	claims := NewDict(3)
	claims.Set("iat", Int(now.Add(-60*time.Second).Unix()))
	claims.Set("exp", Int(now.Add(9*time.Minute).Unix()))
	claims.Set("iss", Str(fmt.Sprint(appID)))
	// The library's jwt_sign (the crypto family) signs the app's token.
	sign, ok := c.th.in.builtin("jwt_sign")
	if !ok {
		return "", connectorError("github connector: %s", unavailableMessage("jwt_sign"))
	}
	jwt, err := sign.Fn(c, []Value{Str("RS256"), DictValue(claims), Str(pem)})
	if err != nil {
		return "", connectorError("github connector: %s", asError(err).Message())
	}
	url := joinURL(base, "/app/installations/"+fmt.Sprint(instID)+"/access_tokens")
	status, _, data, err := connectorRequest(c, "github", "POST", url, map[string]string{
		"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": githubAPIVersion,
		"Authorization": "Bearer " + jwt.AsString()}, nil)
	if err != nil {
		return "", err
	}
	if status < 200 || status > 299 {
		return "", connectorError("github installation token request failed with status %d: %s", status, strings.TrimSpace(string(data)))
	}
	x, err := decodeJSON("github", data)
	if err != nil {
		return "", err
	}
	m, _ := x.(map[string]any)
	token, _ := m["token"].(string)
	if token == "" {
		return "", connectorError("github installation token response has no token")
	}
	refresh := now.Add(50 * time.Minute)
	if exp, _ := m["expires_at"].(string); exp != "" {
		if t, err := time.Parse(time.RFC3339, exp); err == nil {
			refresh = t.Add(-5 * time.Minute)
		}
	}
	st.mu.Lock()
	st.tokens[key] = githubToken{token: token, refresh: refresh}
	st.mu.Unlock()
	return token, nil
}

// githubRequest calls the API as the installation; a 401 mints a new
// token and tries once more. text returns the body as text instead of
// decoded JSON.
func githubRequest(c *Call, p map[string]any, method, path string, body any, accept string, text bool) (any, error) {
	base := orDefault(strParam(p, "api_base_url"), "https://api.github.com")
	url := joinURL(base, path)
	for attempt := 0; ; attempt++ {
		token, err := githubInstallationToken(c, p, base, attempt > 0)
		if err != nil {
			return nil, err
		}
		status, _, data, err := connectorRequest(c, "github", method, url, map[string]string{
			"Accept": accept, "X-GitHub-Api-Version": githubAPIVersion, "Authorization": "Bearer " + token}, body)
		if err != nil {
			return nil, err
		}
		if status == 401 && attempt == 0 {
			continue
		}
		if status < 200 || status > 299 {
			msg := fmt.Sprintf("github API request failed with status %d %s", status, http.StatusText(status))
			if b := strings.TrimSpace(string(data)); b != "" {
				msg += ": " + b
			}
			return nil, connectorError("%s", msg)
		}
		if text {
			return strings.ToValidUTF8(string(data), "\uFFFD"), nil
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return nil, nil
		}
		return decodeJSON("github", data)
	}
}

func githubCall(c *Call, method string, p map[string]any) (any, error) {
	const accept = "application/vnd.github+json"
	issue := func(key string) (githubRef, error) { return parseGitHubRef(strParam(p, key), true) }
	switch method {
	case "comment":
		r, err := issue("issue_url")
		if err != nil {
			return nil, err
		}
		return githubRequest(c, p, "POST", "/repos/"+r.owner+"/"+r.repo+"/issues/"+r.number+"/comments", map[string]any{"body": p["body"]}, accept, false)
	case "add_labels":
		r, err := issue("issue_url")
		if err != nil {
			return nil, err
		}
		return githubRequest(c, p, "POST", "/repos/"+r.owner+"/"+r.repo+"/issues/"+r.number+"/labels", map[string]any{"labels": p["labels"]}, accept, false)
	case "request_review":
		r, err := issue("pr_url")
		if err != nil {
			return nil, err
		}
		return githubRequest(c, p, "POST", "/repos/"+r.owner+"/"+r.repo+"/pulls/"+r.number+"/requested_reviewers", map[string]any{"reviewers": p["reviewers"]}, accept, false)
	case "merge_pr":
		r, err := issue("pr_url")
		if err != nil {
			return nil, err
		}
		body := map[string]any{}
		for _, k := range []string{"commit_title", "commit_message", "merge_method", "sha"} {
			if v, ok := p[k].(string); ok {
				body[k] = v
			}
		}
		res, err := githubRequest(c, p, "PUT", "/repos/"+r.owner+"/"+r.repo+"/pulls/"+r.number+"/merge", body, accept, false)
		if err != nil {
			return nil, err
		}
		if m, ok := res.(map[string]any); ok && p["admin_override"] == true {
			m["admin_override_requested"] = true
		}
		return res, nil
	case "list_stale_prs":
		r, err := parseGitHubRef(strParam(p, "repo"), false)
		if err != nil {
			return nil, err
		}
		var days int64
		switch d := p["days"].(type) {
		case int64:
			days = d
		case float64:
			days = int64(d)
		case json.Number:
			days, _ = d.Int64()
		}
		before := c.th.in.host.Now().UTC().AddDate(0, 0, -int(days)).Format("2006-01-02")
		q := neturl.Values{"q": {"repo:" + r.owner + "/" + r.repo + " is:pr is:open updated:<" + before}}
		return githubRequest(c, p, "GET", "/search/issues?"+q.Encode(), nil, accept, false)
	case "get_pr_diff":
		r, err := issue("pr_url")
		if err != nil {
			return nil, err
		}
		return githubRequest(c, p, "GET", "/repos/"+r.owner+"/"+r.repo+"/pulls/"+r.number, nil, "application/vnd.github.diff", true)
	case "create_issue":
		r, err := parseGitHubRef(strParam(p, "repo"), false)
		if err != nil {
			return nil, err
		}
		body := map[string]any{"title": p["title"]}
		if v, ok := p["body"]; ok {
			body["body"] = v
		}
		if v, ok := p["labels"]; ok {
			body["labels"] = v
		}
		return githubRequest(c, p, "POST", "/repos/"+r.owner+"/"+r.repo+"/issues", body, accept, false)
	case "api_call":
		path, verb := strParam(p, "path"), strings.ToUpper(orDefault(strParam(p, "method"), "GET"))
		if path == "" {
			return nil, connectorError("github connector api_call requires a path")
		}
		return githubRequest(c, p, verb, path, p["body"], orDefault(strParam(p, "accept"), accept), false)
	}
	return nil, connectorError("github connector does not implement outbound method `%s`", method)
}

// --- Slack ---

func slackCall(c *Call, method string, p map[string]any) (any, error) {
	token := strParam(p, "bot_token")
	if token == "" {
		return nil, connectorError("slack connector requires bot_token")
	}
	base := orDefault(strParam(p, "api_base_url"), "https://slack.com/api")
	call := func(api string, body map[string]any, query neturl.Values) (any, error) {
		url := joinURL(base, api)
		verb := "POST"
		var payload any = body
		if query != nil {
			url += "?" + query.Encode()
			verb, payload = "GET", nil
		}
		status, _, data, err := connectorRequest(c, "slack", verb, url, map[string]string{"Authorization": "Bearer " + token}, payload)
		if err != nil {
			return nil, err
		}
		x, err := decodeJSON("slack", data)
		if err != nil {
			return nil, err
		}
		m, _ := x.(map[string]any)
		errText, _ := m["error"].(string)
		if status < 200 || status > 299 {
			return nil, connectorError("%s", orDefault(errText, fmt.Sprintf("Slack API request failed with status %d", status)))
		}
		if ok, _ := m["ok"].(bool); !ok {
			return nil, connectorError("%s", orDefault(errText, "Slack API method `"+api+"` failed"))
		}
		return m, nil
	}
	pick := func(keys ...string) map[string]any {
		out := map[string]any{}
		for _, k := range keys {
			if v, ok := p[k]; ok {
				out[k] = v
			}
		}
		return out
	}
	switch method {
	case "post_message":
		return call("chat.postMessage", pick("channel", "text", "blocks", "thread_ts"), nil)
	case "update_message":
		return call("chat.update", pick("channel", "ts", "text", "blocks"), nil)
	case "add_reaction":
		return call("reactions.add", map[string]any{"channel": p["channel"], "timestamp": p["ts"], "name": p["name"]}, nil)
	case "open_view":
		return call("views.open", pick("trigger_id", "view"), nil)
	case "user_info":
		q := neturl.Values{"user": {strParam(p, "user_id")}}
		if v, ok := p["include_locale"].(bool); ok {
			q.Set("include_locale", strconv.FormatBool(v))
		}
		return call("users.info", nil, q)
	case "api_call":
		api := strParam(p, "method")
		if api == "" {
			return nil, connectorError("slack connector api_call requires a method")
		}
		args, ok := p["args"].(map[string]any)
		if p["args"] != nil && !ok {
			return nil, connectorError("slack api_call args must be a JSON object")
		}
		if args == nil {
			args = map[string]any{}
		}
		return call(api, args, nil)
	}
	return nil, connectorError("slack connector does not implement outbound method `%s`", method)
}

// --- Linear ---

// linearGraphQL posts a GraphQL request and returns {data, errors, meta}.
func linearGraphQL(c *Call, p map[string]any, query string, variables any, operation string) (map[string]any, error) {
	var auth string
	if t := strParam(p, "access_token"); t != "" {
		auth = "Bearer " + t
	} else if k := strParam(p, "api_key"); k != "" {
		auth = k
	} else {
		return nil, connectorError("linear connector requires access_token or api_key")
	}
	url := orDefault(strParam(p, "api_base_url"), "https://api.linear.app/graphql")
	body := map[string]any{"query": query}
	if variables != nil {
		body["variables"] = variables
	}
	if operation != "" {
		body["operationName"] = operation
	}
	status, hdr, data, err := connectorRequest(c, "linear", "POST", url, map[string]string{"Authorization": auth}, body)
	if err != nil {
		return nil, err
	}
	x, err := decodeJSON("linear", data)
	if err != nil {
		return nil, err
	}
	m, _ := x.(map[string]any)
	if status < 200 || status > 299 {
		msg := fmt.Sprintf("linear GraphQL request failed with status %d", status)
		if errs, ok := m["errors"].([]any); ok {
			for _, e := range errs {
				if em, ok := e.(map[string]any); ok {
					msg += ": " + fmt.Sprint(em["message"])
				}
			}
		}
		return nil, connectorError("%s", msg)
	}
	header := func(name string) any {
		if n, err := strconv.ParseInt(hdr.Get(name), 10, 64); err == nil {
			return n
		}
		return nil
	}
	estimate := graphqlComplexity(query)
	observed := header("x-complexity")
	used := any(estimate)
	if observed != nil {
		used = observed
	}
	warn := false
	if n, ok := used.(int64); ok {
		warn = n >= 5000
	}
	meta := map[string]any{
		"complexity_estimate": estimate, "observed_complexity": observed, "complexity_warning": warn,
		"rate_limit": map[string]any{
			"requests_limit": header("x-ratelimit-requests-limit"), "requests_remaining": header("x-ratelimit-requests-remaining"),
			"requests_reset": header("x-ratelimit-requests-reset"), "complexity_limit": header("x-ratelimit-complexity-limit"),
			"complexity_remaining": header("x-ratelimit-complexity-remaining"), "complexity_reset": header("x-ratelimit-complexity-reset"),
		},
	}
	return map[string]any{"data": m["data"], "errors": m["errors"], "meta": meta}, nil
}

// graphqlComplexity estimates a query's cost: one for the query, one per
// selection set, and each page size asked for with first:/last:.
func graphqlComplexity(q string) int64 {
	q = strings.TrimSpace(q)
	score := int64(1) + int64(strings.Count(q, "{"))
	for _, w := range []string{"first:", "last:"} {
		for rest := q; ; {
			i := strings.Index(rest, w)
			if i < 0 {
				break
			}
			rest = strings.TrimLeft(rest[i+len(w):], " ")
			j := 0
			for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
				j++
			}
			if n, err := strconv.ParseInt(rest[:j], 10, 64); err == nil {
				score += n
			}
		}
	}
	return score
}

// linearExecute runs a named operation and returns its root field with
// the response's meta; GraphQL errors are thrown.
func linearExecute(c *Call, p map[string]any, name, document, root string, variables map[string]any) (any, error) {
	env, err := linearGraphQL(c, p, document, variables, name)
	if err != nil {
		return nil, err
	}
	if errs, ok := env["errors"].([]any); ok && len(errs) > 0 {
		var msgs []string
		for _, e := range errs {
			if em, ok := e.(map[string]any); ok {
				msgs = append(msgs, fmt.Sprint(em["message"]))
			}
		}
		return nil, connectorError("GraphQL request failed: %s", strings.Join(msgs, "; "))
	}
	data, _ := env["data"].(map[string]any)
	res := data[root]
	if m, ok := res.(map[string]any); ok {
		m["meta"] = env["meta"]
	}
	return res, nil
}

const (
	linearIssueFields = "id identifier title priority estimate dueDate url updatedAt state { id name type } assignee { id name } project { id name } cycle { id name } labels { nodes { id name } }"
	linearListIssues  = "query ListIssues($filter: IssueFilter, $first: Int, $after: String, $includeArchived: Boolean) { issues(filter: $filter, first: $first, after: $after, includeArchived: $includeArchived) { nodes { createdAt team { id key name } " + linearIssueFields + " } pageInfo { hasNextPage endCursor } } }"
	linearUpdate      = "mutation UpdateIssue($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success issue { " + linearIssueFields + " } } }"
	linearComment     = "mutation CreateComment($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id body url createdAt user { id name } issue { id identifier title } } } }"
	linearSearch      = "query SearchIssues($query: String!, $first: Int) { searchIssues(query: $query, first: $first) { nodes { id identifier title url priority state { id name type } team { id key name } } pageInfo { hasNextPage endCursor } } }"
)

func linearCall(c *Call, method string, p map[string]any) (any, error) {
	nonNil := func(kv ...any) map[string]any {
		out := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] != nil {
				out[kv[i].(string)] = kv[i+1]
			}
		}
		return out
	}
	switch method {
	case "list_issues":
		inc := p["include_archived"]
		if inc == nil {
			inc = p["includeArchived"]
		}
		res, err := linearExecute(c, p, "ListIssues", linearListIssues, "issues",
			nonNil("filter", p["filter"], "first", p["first"], "after", p["after"], "includeArchived", inc))
		if err != nil {
			return nil, err
		}
		if m, ok := res.(map[string]any); ok {
			info, _ := m["pageInfo"].(map[string]any)
			nodes := m["nodes"]
			if nodes == nil {
				nodes = []any{}
			}
			edges := m["edges"]
			if edges == nil {
				edges = []any{}
			}
			orFalse := func(v any) any {
				if v == nil {
					return false
				}
				return v
			}
			m["page"] = map[string]any{"nodes": nodes, "edges": edges,
				"has_next_page": orFalse(info["hasNextPage"]), "has_previous_page": orFalse(info["hasPreviousPage"]),
				"end_cursor": info["endCursor"], "start_cursor": info["startCursor"]}
		}
		return res, nil
	case "update_issue":
		return linearExecute(c, p, "UpdateIssue", linearUpdate, "issueUpdate", map[string]any{"id": p["id"], "input": p["changes"]})
	case "create_comment":
		return linearExecute(c, p, "CreateComment", linearComment, "commentCreate",
			map[string]any{"input": map[string]any{"issueId": p["issue_id"], "body": p["body"]}})
	case "search":
		return linearExecute(c, p, "SearchIssues", linearSearch, "searchIssues", nonNil("query", p["query"], "first", p["first"]))
	case "graphql":
		q := strParam(p, "query")
		if q == "" {
			return nil, connectorError("linear connector graphql requires a query")
		}
		op := strParam(p, "operation_name")
		if op == "" {
			op = strParam(p, "operationName")
		}
		return linearGraphQL(c, p, q, p["variables"], op)
	}
	return nil, connectorError("linear connector does not implement outbound method `%s`", method)
}

// connectorModule builds a std/connectors module: configure, reset, and
// each method, whose positional parameters are named by params (the last
// argument after them is an options dict merged under them).
func connectorModule(provider string, methods map[string][]string) map[string]func(c *Call, args []Value) (Value, error) {
	fns := map[string]func(c *Call, args []Value) (Value, error){
		"configure": func(c *Call, args []Value) (Value, error) {
			cfg := plainMap(Arg(args, 0))
			st := connectorsOf(c)
			st.mu.Lock()
			st.config[provider] = cfg
			st.mu.Unlock()
			return fromGo(cfg), nil
		},
		"reset": func(c *Call, args []Value) (Value, error) {
			st := connectorsOf(c)
			st.mu.Lock()
			delete(st.config, provider)
			st.mu.Unlock()
			return Nil, nil
		},
	}
	for name, params := range methods {
		fns[name] = func(c *Call, args []Value) (Value, error) {
			p := plainMap(Arg(args, len(params)))
			for i, k := range params {
				if v := Arg(args, i); v.k != KindNil {
					p[k] = toGo(v)
				}
			}
			return connectorCall(c, provider, name, connectorParams(c, provider, p))
		}
	}
	return fns
}

func installConnectors(lib *Library) {
	lib.Builtin("connector_call", func(c *Call, args []Value) (Value, error) {
		provider, method := Display(Arg(args, 0)), Display(Arg(args, 1))
		if provider == "" || method == "" {
			return Nil, throwValue(Str("connector_call: provider and method are required"))
		}
		return connectorCall(c, provider, method, plainMap(Arg(args, 2)))
	})
	lib.StdModule("std/connectors/github", connectorModule("github", map[string][]string{
		"comment":        {"issue_url", "body"},
		"add_labels":     {"issue_url", "labels"},
		"request_review": {"pr_url", "reviewers"},
		"merge_pr":       {"pr_url"},
		"list_stale_prs": {"repo", "days"},
		"get_pr_diff":    {"pr_url"},
		"create_issue":   {"repo", "title", "body", "labels"},
		"api_call":       {"path", "method", "body"},
	}))
	lib.StdModule("std/connectors/slack", connectorModule("slack", map[string][]string{
		"post_message":   {"channel", "text", "blocks"},
		"update_message": {"channel", "ts", "text", "blocks"},
		"add_reaction":   {"channel", "ts", "name"},
		"open_view":      {"trigger_id", "view"},
		"user_info":      {"user_id"},
		"api_call":       {"method", "args"},
	}))
	lib.StdModule("std/connectors/linear", connectorModule("linear", map[string][]string{
		"list_issues":    {"filter"},
		"update_issue":   {"id", "changes"},
		"create_comment": {"issue_id", "body"},
		"search":         {"query"},
		"graphql":        {"query", "variables"},
	}))
}
