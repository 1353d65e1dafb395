#!/bin/sh
# screens.sh GUI_SCREENS — the part of the screenshot matrix `meson test`
# runs (tools/screenshots.sh runs all of it): every view in a window and in
# presentation mode, default, dark and high-contrast themes, with the H200
# records and a live CPU run, on a 1280×800 screen (the common projector),
# and the default theme on 1024×768; and in German and Serbian, whose
# longer words once widened the high-contrast window past a 1024-pixel
# screen, the high-contrast window at 1024×768.  Each size gets its own
# Xvfb screen.
set -u
gui_screens=$1
command -v xvfb-run > /dev/null || { echo "xvfb-run is missing"; exit 77; }
status=0
xvfb-run -a -s "-screen 0 1280x800x24" "$gui_screens" --themes default,dark,hc || status=1
xvfb-run -a -s "-screen 0 1024x768x24" "$gui_screens" --themes default || status=1
for lang in de sr; do
  LANGUAGE=$lang xvfb-run -a -s "-screen 0 1024x768x24" "$gui_screens" --themes hc --modes window \
    --scenarios records || status=1
done
exit $status
