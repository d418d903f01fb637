"use client";
/**
 * Drag-and-drop of files onto one element: `dragging` is true while files are held over it, and
 * `onFiles` receives the dropped files (possibly none; the caller decides what an empty drop
 * means). Drags that carry no files (text, links) are ignored: no highlight, and the browser's
 * default handling stays. Spread `handlers` onto the drop target.
 */
import { type DragEvent, useRef, useState } from "react";

const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes("Files");

export interface FileDropHandlers {
  onDragEnter: (e: DragEvent) => void;
  onDragLeave: (e: DragEvent) => void;
  onDragOver: (e: DragEvent) => void;
  onDrop: (e: DragEvent) => void;
}

export function useFileDrop(onFiles: (files: File[]) => void): { dragging: boolean; handlers: FileDropHandlers } {
  const [dragging, setDragging] = useState(false);
  // dragenter / dragleave fire for every child; count them to know when the pointer really left.
  const depth = useRef(0);

  const handlers: FileDropHandlers = {
    onDragEnter: (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragLeave: (e) => {
      if (!hasFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    // Cancelling dragover is what makes the element a drop target; only file drags get one.
    onDragOver: (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
    },
    onDrop: (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setDragging(false);
      onFiles(Array.from(e.dataTransfer.files));
    },
  };
  return { dragging, handlers };
}
