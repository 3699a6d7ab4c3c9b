  } catch (e) {
    S.errors.push('page: ' + e.message);
  }
  var st = document.getElementById('llm-status');
  st.setAttribute('data-expected', S.expected);
  st.setAttribute('data-drawn', S.drawn);
  st.setAttribute('data-errors', S.errors.length);
  st.textContent = S.errors.join(' | ');
})();
