package catalog

import "strings"

// chatProtocols are the model protocol names a Leia model registration may
// give (`model { fast: {protocol: "openai", ...} }`), in the form they are
// compared in (see NormalizeProtocol), with the chat wire each speaks. The
// first eight are the names Leia's validator accepts; openai-chat,
// anthropic-messages and mock are this runtime's own (the wires' names and
// the offline mock), accepted by the Leia checker (LEIA3001) and runtime
// alike.
var chatProtocols = []struct{ name, api string }{
	{"openai", APIOpenAIChat},
	{"openai-compatible", APIOpenAIChat},
	{"openai-compat", APIOpenAIChat},
	{"chat-completions", APIOpenAIChat},
	{"anthropic", APIAnthropicMessages},
	{"anthropic-compatible", APIAnthropicMessages},
	{"anthropic-compat", APIAnthropicMessages},
	{"messages", APIAnthropicMessages},
	{"openai-chat", APIOpenAIChat},
	{"anthropic-messages", APIAnthropicMessages},
	{"mock", APIMock},
}

// NormalizeProtocol is the form a model protocol name is compared in:
// surrounding space removed, lower case, "_" turned into "-".
func NormalizeProtocol(p string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(p)), "_", "-")
}

// ChatAPI is the chat wire (APIOpenAIChat, APIAnthropicMessages, APIMock)
// a model protocol name speaks; ok is false for a protocol no runtime
// supports. The Leia checker (LEIA3001) and the Leia AI runtime both ask
// it, so a registration the checker accepts is one the runtime can dial.
func ChatAPI(protocol string) (api string, ok bool) {
	p := NormalizeProtocol(protocol)
	for _, c := range chatProtocols {
		if c.name == p {
			return c.api, true
		}
	}
	return "", false
}

// ChatProtocols lists the accepted model protocol names, in their
// compared form, for help texts.
func ChatProtocols() []string {
	out := make([]string, len(chatProtocols))
	for i, c := range chatProtocols {
		out[i] = c.name
	}
	return out
}
