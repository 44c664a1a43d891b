"""`make serve` hears saves through the operating system's file events instead of MkDocs's polling every 0.5 s.

A save then starts its rebuild at once, and no polling threads slow the rebuild down. `ATLAS_WATCH=poll` keeps
MkDocs's polling, for file systems that send no events (some container mounts).
"""

from __future__ import annotations

import watchdog.observers
from mkdocs.livereload import LiveReloadServer
from watchdog.events import FileClosedEvent, FileCreatedEvent, FileDeletedEvent, FileModifiedEvent, FileMovedEvent

QUIET_BEFORE_BUILD = 0.02  # seconds without events before a rebuild starts (MkDocs waits 0.1 s)


def watch_with_file_events(server: LiveReloadServer) -> None:
    """Move the server's watches to a file-event observer.

    The paths watched before the `serve` event move to the new observer; the folders under `watch:` (data/ among
    them) are added after it. mkdocs and watchdog are pinned in requirements.txt; `_watched_paths` is the server's
    list of watched paths, `build_delay` how long it waits for a burst of events to end.
    """
    watched = list(server._watched_paths)
    for path in watched:
        server.unwatch(path)
    server.observer = _ChangesObserver()
    for path in watched:
        server.watch(path)
    server.build_delay = QUIET_BEFORE_BUILD  # the events of one save arrive within milliseconds


class _ChangesObserver(watchdog.observers.Observer):
    """The platform's file-event observer, reporting only changes: MkDocs rebuilds on any event it hears, and the
    events of files being read (opened, closed unwritten) would make every build start the next one."""

    CHANGES = (FileCreatedEvent, FileModifiedEvent, FileClosedEvent, FileMovedEvent, FileDeletedEvent)

    def schedule(self, event_handler, path, *, recursive=False, event_filter=None, follow_symlink=False):
        """Watch `path` for changes only."""
        return super().schedule(event_handler, path, recursive=recursive, event_filter=list(self.CHANGES), follow_symlink=follow_symlink)
