module.exports = { content: ["./templates/**/*.html"] };
