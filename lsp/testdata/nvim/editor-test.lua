-- Real-editor test of leia-lsp, run by ./editor-test:
--   nvim --headless -u NONE -i NONE -c "luafile editor-test.lua"
-- with LEIA_LSP (the server binary), LEIA_LSP_WORK (a scratch directory)
-- and LEIA_LSP_LOG (the server's log file) in the environment.
--
-- Written for Neovim 0.7 (Debian bookworm's), so it uses start_client and
-- buf_attach_client rather than vim.lsp.start. Each step waits for the
-- server through the editor's own LSP client and fails with a message.
--
-- Today the documents are in the Fake test language (.fake, compiled into
-- leia-lsp with -tags leialsptest): the word "bad" is an error
-- FAKE-BAD-001 with a fix to "good"; hover names a word; definition jumps
-- to a word's first occurrence.
--
-- TODO(issue 9): once the Harn checker exists, add the same steps for a
-- .harn file with a HARN-TYP-036 error (an evaluation site whose question
-- set is built at run time) and the edit that makes it static; once the
-- Leia front end exists, a .leia file with a syntax error (LEIA1001) and
-- its fix; hover and definition on a Harn identifier.

local server = assert(os.getenv("LEIA_LSP"), "LEIA_LSP not set")
local work = assert(os.getenv("LEIA_LSP_WORK"), "LEIA_LSP_WORK not set")
local logfile = assert(os.getenv("LEIA_LSP_LOG"), "LEIA_LSP_LOG not set")
local timeout = 10000

local function fail(msg)
  io.stderr:write("editor-test: FAIL: " .. msg .. "\n")
  vim.cmd("cquit 1")
end

local function step(msg)
  io.stderr:write("editor-test: " .. msg .. "\n")
end

local function check(cond, msg)
  if not cond then fail(msg) end
end

-- Diagnostics as the editor stores them (byte columns, 0-based lines).
local function diags(bufnr)
  return vim.diagnostic.get(bufnr)
end

local function wait_for(what, pred)
  local ok = vim.wait(timeout, pred, 20)
  if not ok then fail("timed out waiting for " .. what) end
end

local file = work .. "/scratch.fake"
local f = assert(io.open(file, "w"))
-- "é" is 2 bytes but 1 UTF-16 unit: the editor must convert the server's
-- UTF-16 columns to its byte columns for the range to be right.
f:write("def main\né bad main\n")
f:close()

vim.cmd("edit " .. file)
local bufnr = vim.api.nvim_get_current_buf()
vim.bo[bufnr].filetype = "fake"

local client_id = vim.lsp.start_client({
  name = "leia-lsp",
  cmd = { server, "--log", logfile, "--debounce", "20ms", "--explain-dir", work .. "/explain" },
  root_dir = work,
  flags = { debounce_text_changes = 0 },
})
check(client_id ~= nil, "leia-lsp did not start")
vim.lsp.buf_attach_client(bufnr, client_id)
step("attached leia-lsp to " .. file)

-- 1. The diagnostic arrives with the right range.
wait_for("the FAKE-BAD-001 diagnostic", function() return #diags(bufnr) > 0 end)
local d = diags(bufnr)
check(#d == 1, "want 1 diagnostic, got " .. #d)
d = d[1]
check(d.code == "FAKE-BAD-001", "code " .. tostring(d.code))
check(d.severity == vim.diagnostic.severity.ERROR, "severity " .. tostring(d.severity))
check(d.lnum == 1 and d.col == 3 and d.end_lnum == 1 and d.end_col == 6,
  string.format("range %d:%d-%d:%d, want 1:3-1:6 (byte columns)", d.lnum, d.col, d.end_lnum, d.end_col))
step("diagnostic arrived at 1:3-1:6")

-- 2. The server's quick fix, applied by the editor, clears it.
local params = {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  range = { start = { line = 1, character = 2 }, ["end"] = { line = 1, character = 2 } },
  context = { diagnostics = {}, only = { "quickfix" } },
}
local resp = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, timeout)
check(resp and resp[client_id] and resp[client_id].result, "no code action response")
local actions = resp[client_id].result
check(#actions == 1 and actions[1].title == 'Replace with "good"', "code actions: " .. vim.inspect(actions))
vim.lsp.util.apply_workspace_edit(actions[1].edit, "utf-16")
check(vim.api.nvim_buf_get_lines(bufnr, 1, 2, false)[1] == "é good main", "fix not applied: " ..
  vim.api.nvim_buf_get_lines(bufnr, 1, 2, false)[1])
wait_for("the diagnostic to clear after the fix", function() return #diags(bufnr) == 0 end)
step("quick fix applied, diagnostic cleared")

-- 3. Typing the error back brings it back; a plain edit clears it again.
vim.api.nvim_buf_set_text(bufnr, 0, 8, 0, 8, { " bad" })
wait_for("the diagnostic to come back", function() return #diags(bufnr) == 1 end)
d = diags(bufnr)[1]
check(d.lnum == 0 and d.col == 9 and d.end_col == 12, string.format("new range %d:%d-%d", d.lnum, d.col, d.end_col))
vim.api.nvim_buf_set_text(bufnr, 0, 9, 0, 12, { "fine" })
wait_for("the diagnostic to clear after the edit", function() return #diags(bufnr) == 0 end)
step("edit cleared the diagnostic")

-- 3b. A diagnostic with a registered code links its explanation page.
vim.api.nvim_buf_set_text(bufnr, 0, 0, 0, 0, { "warn " })
wait_for("the HARN-LNT-079 diagnostic", function() return #diags(bufnr) == 1 end)
d = diags(bufnr)[1]
local lspdiag = d.user_data and d.user_data.lsp or {}
local href = lspdiag.codeDescription and lspdiag.codeDescription.href
check(d.code == "HARN-LNT-079" and href, "no code description: " .. vim.inspect(d))
local page = io.open(vim.uri_to_fname(href))
check(page, "explanation page missing: " .. href)
local first = page:read("*l")
page:close()
check(first:find("^HARN%-LNT%-079 %(warning%)"), "explanation page starts with " .. first)
vim.api.nvim_buf_set_text(bufnr, 0, 0, 0, 5, { "" })
wait_for("the warning to clear", function() return #diags(bufnr) == 0 end)
step("code description links " .. href)

-- 4. Hover and definition round-trip through the editor.
local pos = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 1, character = 8 } }
resp = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", pos, timeout)
local hover = resp and resp[client_id] and resp[client_id].result
check(hover and hover.contents and hover.contents.value == "word `main` (2 occurrences)",
  "hover: " .. vim.inspect(hover))
step("hover: " .. hover.contents.value)
resp = vim.lsp.buf_request_sync(bufnr, "textDocument/definition", pos, timeout)
local defs = resp and resp[client_id] and resp[client_id].result
check(defs and #defs == 1 and defs[1].range.start.line == 0 and defs[1].range.start.character == 4,
  "definition: " .. vim.inspect(defs))
step("definition: 0:4")

-- 5. Orderly shutdown.
vim.lsp.stop_client(client_id)
wait_for("the server to stop", function() return vim.lsp.get_client_by_id(client_id) == nil end)
step("PASS")
vim.cmd("qall!")
