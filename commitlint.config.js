/**
 * Commit messages (checked by .githooks/commit-msg, which `npm install` turns on): a conventional
 * subject, `type(scope): what`, of at most 72 characters; the detail goes in the body, whose lines
 * may be as long as a URL or a command needs.
 */
export default {
  extends: ["@commitlint/config-conventional"],
  rules: {
    "header-max-length": [2, "always", 72],
    // A subject may start with a name as it is spelled: `GET /`, `README`, `OpenAPI`.
    "subject-case": [0],
    "body-max-line-length": [0],
    "footer-max-line-length": [0],
  },
};
