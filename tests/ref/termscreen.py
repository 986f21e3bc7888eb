"""A small terminal model for tests: feeds attn's output (text, CR/LF, SGR colour codes) into a grid of cells, as a
terminal of COLS columns would show it, so tests can check what a person sees (lines used, widths, legend text,
colours) and render the screen to PNG (PIL) to look at it. Other escape sequences (queries, cursor keys) are
skipped; sixel data (ESC P ... ESC \\) is kept aside and its raster size read."""
import fcntl, os, pty, re, select, struct, sys, termios, time

XTERM16 = [0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
           0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff]


def xterm256(n):
    """The RGB of xterm colour n as 0xRRGGBB."""
    if n < 16:
        return XTERM16[n]
    if n >= 232:
        g = 8 + 10 * (n - 232)
        return g << 16 | g << 8 | g
    n -= 16
    lv = [0, 95, 135, 175, 215, 255]
    return lv[n // 36] << 16 | lv[n // 6 % 6] << 8 | lv[n % 6]


class Screen:
    def __init__(self, cols=80):
        self.cols = cols
        self.rows = [[]]          # each cell: (char, fg, bg, kind) kind 't' truecolor, '5' 256, '' default
        self.x = 0
        self.fg = self.bg = None
        self.sixels = []          # (width, height) from each sixel's raster attributes
        self.kinds = set()        # colour codes seen: '2' truecolor, '5' 256-colour, 'basic'
        self.overflow = False     # a character written past the last column

    def _sgr(self, params):
        p = [int(x) if x else 0 for x in params.split(';')] if params else [0]
        i = 0
        while i < len(p):
            v = p[i]
            if v == 0:
                self.fg = self.bg = None
            elif v == 39:
                self.fg = None
            elif v == 49:
                self.bg = None
            elif v in (38, 48) and i + 1 < len(p):
                if p[i + 1] == 5 and i + 2 < len(p):
                    c = xterm256(p[i + 2])
                    self.kinds.add('5')
                    i += 2
                elif p[i + 1] == 2 and i + 4 < len(p):
                    c = p[i + 2] << 16 | p[i + 3] << 8 | p[i + 4]
                    self.kinds.add('2')
                    i += 4
                else:
                    c = None
                if v == 38:
                    self.fg = c
                else:
                    self.bg = c
            elif 30 <= v <= 37 or 90 <= v <= 97:
                self.fg = XTERM16[v - 30 if v < 90 else v - 90 + 8]
                self.kinds.add('basic')
            elif 40 <= v <= 47 or 100 <= v <= 107:
                self.bg = XTERM16[v - 40 if v < 100 else v - 100 + 8]
                self.kinds.add('basic')
            i += 1

    def feed(self, text):
        i = 0
        n = len(text)
        while i < n:
            ch = text[i]
            if ch == '\x1b':
                if text.startswith('\x1bP', i):            # DCS: sixel
                    end = text.find('\x1b\\', i)
                    end = n if end < 0 else end + 2
                    m = re.search(r'"(\d+);(\d+);(\d+);(\d+)', text[i:end])
                    if m:
                        self.sixels.append((int(m.group(3)), int(m.group(4))))
                    i = end
                    continue
                m = re.match(r'\x1b\[([0-9;?]*)([A-Za-z])', text[i:])
                if m:
                    if m.group(2) == 'm':
                        self._sgr(m.group(1))
                    i += m.end()
                    continue
                i += 2
                continue
            if ch == '\r':
                self.x = 0
            elif ch == '\n':
                self.rows.append([])
                self.x = 0
            elif ch == '\x0c' or ch == '\x07':
                pass
            elif ch == '\b':
                self.x = max(0, self.x - 1)
            else:
                if self.x >= self.cols:
                    self.overflow = True
                row = self.rows[-1]
                while len(row) < self.x:
                    row.append((' ', None, None))
                cell = (ch, self.fg, self.bg)
                if self.x < len(row):
                    row[self.x] = cell
                else:
                    row.append(cell)
                self.x += 1
            i += 1
        return self

    def lines(self):
        """The text of each line, without colours or trailing spaces."""
        return [''.join(c[0] for c in r).rstrip() for r in self.rows]

    def used_lines(self):
        """Lines from the first to the last that holds anything."""
        ls = self.lines()
        idx = [k for k, l in enumerate(ls) if l.strip() or any(c[2] is not None for c in self.rows[k])]
        return ls[idx[0]:idx[-1] + 1] if idx else []

    def width(self):
        return max((len(r.rstrip()) for r in self.lines()), default=0)

    def cells(self):
        for y, r in enumerate(self.rows):
            for x, c in enumerate(r):
                yield x, y, c

    def png(self, path, cell=(9, 18)):
        """Renders the screen (black on white) with DejaVu Sans Mono; half blocks as two exact colour halves."""
        from PIL import Image, ImageDraw, ImageFont
        w, h = cell
        used = len(self.rows)
        img = Image.new('RGB', (self.cols * w, max(1, used) * h), 'white')
        d = ImageDraw.Draw(img)
        font = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf', int(h * 0.8))

        def rgb(c):
            return ((c >> 16) & 255, (c >> 8) & 255, c & 255)
        for x, y, (ch, fg, bg) in self.cells():
            x0, y0 = x * w, y * h
            if bg is not None:
                d.rectangle([x0, y0, x0 + w - 1, y0 + h - 1], fill=rgb(bg))
            if ch == '\u2580':
                d.rectangle([x0, y0, x0 + w - 1, y0 + h // 2 - 1], fill=rgb(fg if fg is not None else 0))
            elif 0x2800 <= ord(ch) <= 0x28ff:        # braille: the dots themselves (DejaVu Sans Mono has none)
                bits = ord(ch) - 0x2800
                for k, (dx, dy) in enumerate(((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3))):
                    if bits >> k & 1:
                        cx, cy = x0 + w * (1 + 2 * dx) // 4, y0 + h * (1 + 2 * dy) // 8
                        d.ellipse([cx - 1, cy - 1, cx + 1, cy + 1], fill=rgb(fg if fg is not None else 0))
            elif ch != ' ':
                d.text((x0, y0), ch, font=font, fill=rgb(fg) if fg is not None else (0, 0, 0))
        img.save(path)


def run_pty(code, cwd, cols=80, rows=24, env=None, answer=None, timeout=120, attn=None):
    """attn -c CODE at a pseudo-terminal of cols×rows; answer: bytes written back when attn asks the terminal."""
    attn = os.path.abspath(attn or (sys.argv[1] if len(sys.argv) > 1 else "./attn"))
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        e = dict(os.environ)
        e.pop("DISPLAY", None)
        for k in ("COLORTERM", "NO_COLOR", "ATTN_SIXEL", "ATTN_PLOT"):
            e.pop(k, None)
        e.update(env or {})
        os.execve(attn, [attn, "-q", "-c", code], e)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    out, t0 = b"", time.time()
    while time.time() - t0 < timeout:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                d = os.read(fd, 65536)
            except OSError:
                break
            if not d:
                break
            out += d
            if answer is not None and b"\x1b[c" in d:
                os.write(fd, answer)
    os.waitpid(pid, 0)
    os.close(fd)
    return out.decode("utf-8", "replace")
