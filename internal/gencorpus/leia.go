package gencorpus

import (
	"fmt"
	"strings"
)

// Leia returns n generated Leia modules shaped like real agent programs:
// a model registration, tools with capabilities, an agent with a config
// function and one declared with request fields, a turn, helper functions
// with loops and string work, and an evaluate block. Module i depends only
// on i; every module checks clean.
func Leia(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		var b strings.Builder
		fmt.Fprintf(&b, "// Generated module %d.\n", i)
		fmt.Fprintf(&b, `model {
    default: "fast%[1]d"
    fast%[1]d: {
        protocol: "openai_compatible"
        api_key: os.getenv("LEIA_LLM_API_KEY")
        provider_model: os.getenv("LEIA_LLM_MODEL")
    }
    careful%[1]d: "fast%[1]d"
}

`, i)
		tools := 2 + i%3
		var names []string
		for j := 0; j < tools; j++ {
			name := fmt.Sprintf("lookup%d_%d", i, j)
			names = append(names, name)
			fmt.Fprintf(&b, `%[1]s := tool {
    name: "%[1]s"
    params: ["query", "limit"]
    description: "Search index %[2]d for documents."
    requires: ["docs.read", "index%[2]d.read"]
    fn: func(query, limit) {
        if limit == nil {
            limit = %[2]d
        }
        hits := []
        for k := 1; k <= limit; k++ {
            hits[#hits + 1] = string.format("%%s#%%d", query, k)
        }
        return table.concat(hits, ","), nil
    }
}

`, name, j)
		}
		var caps []string
		for j := 0; j < tools; j++ {
			caps = append(caps, fmt.Sprintf(`"index%d.read"`, j))
		}
		fmt.Fprintf(&b, `func normalize%[1]d(text) {
    words := []
    for _, w := range [string.lower(text), string.upper(text)] {
        if #w > 0 {
            words[#words + 1] = w
        }
    }
    return table.concat(words, " ")
}

reviewer%[1]d := agent {
    name: "reviewer%[1]d"
    params: ["question"]
    config: func(question) {
        if question == nil || question == "" {
            return nil, {kind: "validation", message: "question is required"}
        }
        return {
            model: "careful%[1]d"
            system: "Answer from the documents only."
            user: normalize%[1]d(question)
            tools: [%[2]s]
            capabilities: ["docs.read", %[3]s]
            max_steps: %[4]d
        }, nil
    }
}

summarizer%[1]d := agent {
    name: "summarizer%[1]d"
    model: "fast%[1]d"
    instructions: prompt { role: "system", text: "Summarize in one line." }
    tools: [%[2]s]
}

func answer%[1]d(question) {
    result, err := reviewer%[1]d(question)
    if err != nil {
        return nil, err
    }
    summary, serr := summarizer%[1]d(result.text)
    if serr != nil {
        return result.text, nil
    }
    return summary.text, nil
}

reply%[1]d, err%[1]d := turn {
    model: "fast%[1]d"
    messages: [llm.system("Be brief."), llm.user("status of service %[1]d")]
    tools: [%[2]s]
    max_tokens: 64
}
if err%[1]d != nil {
    print("turn failed:", err%[1]d.message)
} else {
    print(reply%[1]d.text)
}

evaluate "module %[1]d answers" {
    text, err := answer%[1]d("what changed in release %[1]d?")
    assert(err == nil)
    eval.metric("answered", text != nil)
}
`, i, strings.Join(names, ", "), strings.Join(caps, ", "), 2+i%5)
		out[i] = []byte(b.String())
	}
	return out
}
