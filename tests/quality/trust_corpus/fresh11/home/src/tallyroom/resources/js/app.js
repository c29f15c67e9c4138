// resources/js/app.js
