// Weekly summary mail.
