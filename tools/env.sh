# Sourced by Tilelab's scripts: puts CUDA on the PATH when it is installed.
if [ -d /usr/local/cuda/bin ]; then
  case ":$PATH:" in *":/usr/local/cuda/bin:"*) ;; *) PATH="/usr/local/cuda/bin:$PATH" ;; esac
  export PATH
fi
