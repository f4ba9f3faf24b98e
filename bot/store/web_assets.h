/* web_assets.h: the match page's files (web/page.html, page.css, page.js), embedded at build
 * time by web/embed.c; each a NUL-terminated string. */
#ifndef CARDBOT_WEB_ASSETS_H
#define CARDBOT_WEB_ASSETS_H

extern const char web_page_html[], web_page_css[], web_page_js[];

#endif
