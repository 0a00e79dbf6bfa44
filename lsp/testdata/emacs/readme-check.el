;;; readme-check.el --- run by ./readme-test after the README's Emacs block.
;; Opening a Harn file with a syntax error must bring leia-lsp's
;; diagnostic into the buffer through the README's setup alone (eglot,
;; flymake).
(require 'eglot)
(require 'flymake)
(let ((file (getenv "LEIA_LSP_README_FILE")))
  (find-file file)
  (unless (eq major-mode 'harn-mode)
    (message "readme-test: FAIL: major mode is %s, want harn-mode" major-mode)
    (kill-emacs 1))
  ;; eglot-ensure starts the server from post-command-hook, which a batch
  ;; Emacs never runs on its own.
  (run-hooks 'post-command-hook)
  (let ((deadline (+ (float-time) 20))
        (found nil))
    (while (and (not found) (< (float-time) deadline))
      (accept-process-output nil 0.1)
      (when (and (bound-and-true-p flymake-mode) (eglot-current-server))
        (flymake-start))
      (setq found (seq-find (lambda (d) (string-match-p "HARN-\\|expected\\|unexpected" (flymake-diagnostic-text d)))
                            (flymake-diagnostics))))
    (if found
        (progn
          (message "readme-test: ok: the README's Emacs setup gets leia-lsp's diagnostics (%s)" (flymake-diagnostic-text found))
          (kill-emacs 0))
      (message "readme-test: FAIL: no diagnostic from leia-lsp within 20 s (server %s)" (eglot-current-server))
      (kill-emacs 1))))
