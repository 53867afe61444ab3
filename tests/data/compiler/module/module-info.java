module com.example.mod {
    exports mpkg;
}
