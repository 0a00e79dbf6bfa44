-- Run by ./readme-test after the README's Neovim 0.7 block (the init
-- file): opening a Harn file with a syntax error must bring leia-lsp's
-- diagnostic into the buffer, through the README's setup alone.
local file = assert(os.getenv("LEIA_LSP_README_FILE"), "LEIA_LSP_README_FILE not set")
vim.cmd("edit " .. file)
local bufnr = vim.api.nvim_get_current_buf()
if vim.bo[bufnr].filetype ~= "harn" then
  io.stderr:write("readme-test: FAIL: filetype is '" .. vim.bo[bufnr].filetype .. "', want harn\n")
  vim.cmd("cquit 1")
end
local ok = vim.wait(10000, function()
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == "HARN-PAR-001" or tostring(d.message):find("HARN") or d.source ~= nil then
      return true
    end
  end
  return false
end, 20)
if not ok then
  io.stderr:write("readme-test: FAIL: no diagnostic from leia-lsp within 10 s\n")
  vim.cmd("cquit 1")
end
io.stderr:write("readme-test: ok: the README's Neovim 0.7 setup gets leia-lsp's diagnostics\n")
vim.cmd("qall!")
