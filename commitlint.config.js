/**
 * Commit messages (checked by .githooks/commit-msg, which `npm install` turns on): a conventional
 * subject, `type(scope): what`, of at most 72 characters; the detail goes in the body, whose lines
 * may be as long as a URL or a command needs.
 */
export default {
  extends: ["@commitlint/config-conventional"],
  rules: {
    "header-max-length": [2, "always", 72],
    "body-max-line-length": [0],
    "footer-max-line-length": [0],
  },
};
